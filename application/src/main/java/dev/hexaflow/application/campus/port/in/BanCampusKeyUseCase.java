package dev.hexaflow.application.campus.port.in;

/** Bans a campus API key, so that every later call with it is refused with 403. */
public interface BanCampusKeyUseCase {

    /** @throws UnknownCampusKeyException when no such key was issued */
    void ban(String key);

    /** The key to ban was never issued. */
    class UnknownCampusKeyException extends RuntimeException {
        public UnknownCampusKeyException() {
            super("No such campus key");
        }
    }
}
