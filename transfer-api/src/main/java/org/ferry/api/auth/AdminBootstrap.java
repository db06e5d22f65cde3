package org.ferry.api.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import org.ferry.api.domain.UserAccount;
import org.ferry.api.repository.UserAccountRepository;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * On the first start (no users yet) creates user {@code admin} with a random bearer token and
 * writes the token to {@code FERRY_HOME/token} (mode 600). Later starts change nothing. Only the
 * token's hash is stored, so a lost token file cannot be recovered: stop the server and delete
 * {@code FERRY_HOME/db} to start over.
 *
 * <p>Runs after all singletons exist (so after Flyway) and before the web server opens its port.
 */
@Component
public class AdminBootstrap implements SmartInitializingSingleton {

    /** The user created on first start. */
    public static final String ADMIN = "admin";

    private static final Logger log = LoggerFactory.getLogger(AdminBootstrap.class);

    private final UserAccountRepository users;
    private final FerryHome home;

    /**
     * @param users user store
     * @param home where the token file goes
     */
    public AdminBootstrap(UserAccountRepository users, FerryHome home) {
        this.users = users;
        this.home = home;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (users.count() > 0) {
            return;
        }
        String token = TokenHasher.newToken(new SecureRandom());
        writeTokenFile(home.tokenFile(), token);
        users.save(new UserAccount(ADMIN, TokenHasher.hash(token)));
        log.info("Created user '{}'; its API token is in {}", ADMIN, home.tokenFile());
    }

    private static void writeTokenFile(Path file, String token) {
        try {
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                // created 600 from the start, so the token is never readable by others, not even briefly
                Files.createFile(
                        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            Files.writeString(
                    file,
                    token + "\n",
                    StandardCharsets.US_ASCII,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the admin token file " + file, e);
        }
    }
}
