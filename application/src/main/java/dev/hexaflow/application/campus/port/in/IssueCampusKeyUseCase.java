package dev.hexaflow.application.campus.port.in;

/** Issues a new campus API key; the key itself is answered once and only its hash is kept. */
public interface IssueCampusKeyUseCase {

    String issue();
}
