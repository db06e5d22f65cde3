package org.ferry.gsi.myproxy;

import java.io.IOException;

/** The MyProxy server refused a request or broke the protocol. The message is the server's, for the user. */
public class MyProxyException extends IOException {
    private static final long serialVersionUID = 1L;

    /** @param message what the server said or what went wrong */
    public MyProxyException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong
     * @param cause   the underlying failure
     */
    public MyProxyException(String message, Throwable cause) {
        super(message, cause);
    }
}
