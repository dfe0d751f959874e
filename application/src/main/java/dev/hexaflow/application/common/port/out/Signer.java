package dev.hexaflow.application.common.port.out;

/** Signs messages with a key that this process alone holds: what it signed, and only that, signs the same. */
public interface Signer {

    byte[] sign(byte[] message);
}
