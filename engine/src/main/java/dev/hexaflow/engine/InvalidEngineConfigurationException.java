package dev.hexaflow.engine;

/** A setting of the engine cannot be: the message names the setting and what it takes. */
public final class InvalidEngineConfigurationException extends IllegalArgumentException {

    public InvalidEngineConfigurationException(String message) {
        super(message);
    }
}
