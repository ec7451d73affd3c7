package dev.mcpx.front.http;

/** The shared session store could not be reached or answered wrongly: the host gets a 503, mcpx goes on. */
public final class SessionStoreException extends RuntimeException {

    public SessionStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
