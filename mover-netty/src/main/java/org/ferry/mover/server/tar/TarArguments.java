package org.ferry.mover.server.tar;

import org.ferry.mover.protocol.TarModule;
import org.ferry.mover.server.pi.FtpException;

/** Parses the TAR module's argument for ERET and ESTO, answering a malformed one as globus does. */
public final class TarArguments {

    private TarArguments() {}

    /**
     * @param argument the text after ERET or ESTO, {@code TAR="..." path}
     * @return the names and the path
     * @throws FtpException 501 naming what is wrong (GFD.020 "ERET"/"ESTO": bad parameters)
     */
    public static TarModule.Argument parse(String argument) throws FtpException {
        try {
            return TarModule.parse(argument);
        } catch (IllegalArgumentException e) {
            throw new FtpException(501, "bad parameter: " + e.getMessage() + ".");
        }
    }
}
