package org.ferry.api.auth;

import java.nio.file.Path;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The Ferry state directory ({@code ferry.home}; the server's properties default it to
 * {@code $FERRY_HOME} or {@code ~/.ferry}). Holds {@code db/} and the admin {@code token} file.
 */
@Component
public class FerryHome {

    private final Path directory;

    /** @param directory the state directory */
    public FerryHome(@Value("${ferry.home:${FERRY_HOME:${user.home}/.ferry}}") String directory) {
        this.directory = Path.of(directory).toAbsolutePath();
    }

    /** @return the state directory (absolute) */
    public Path directory() {
        return directory;
    }

    /** @return the file holding the admin's bearer token */
    public Path tokenFile() {
        return directory.resolve("token");
    }
}
