package org.ferry.api.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.ferry.api.domain.Role;
import org.ferry.api.domain.UserAccount;
import org.ferry.api.identity.AccessTokenService;
import org.ferry.api.identity.AccountService;
import org.ferry.api.repository.UserAccountRepository;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * On a start with no admin account (the first start) creates the admin {@code admin} and an
 * access token for it, written to {@code FERRY_HOME/token} (mode 600), so that
 * {@code bin/ferry-server} alone gives a working CLI on the same machine. Later starts change
 * nothing. Only the token's hash is stored: a lost token file cannot be recovered (give the
 * admin a password with {@code ferry-server user passwd admin} and {@code ferry login}).
 *
 * <p>Runs after all singletons exist (so after Flyway) and before the web server opens its port.
 */
@Component
public class AdminBootstrap implements SmartInitializingSingleton {

    /** The admin account created on first start. */
    public static final String ADMIN = "admin";

    private static final Logger log = LoggerFactory.getLogger(AdminBootstrap.class);

    private final UserAccountRepository accounts;
    private final AccessTokenService tokens;
    private final FerryHome home;

    /**
     * @param accounts the account store
     * @param tokens makes the admin's token
     * @param home where the token file goes
     */
    public AdminBootstrap(UserAccountRepository accounts, AccessTokenService tokens, FerryHome home) {
        this.accounts = accounts;
        this.tokens = tokens;
        this.home = home;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (accounts.existsByRole(Role.ADMIN)) {
            return;
        }
        UserAccount admin = accounts.findByName(ADMIN).orElseGet(() -> new UserAccount(ADMIN, Role.ADMIN, null));
        admin.setRole(Role.ADMIN);
        admin = accounts.save(admin);
        String token = tokens.create(AccountService.caller(admin), "first-start token (FERRY_HOME/token)", null)
                .token();
        writeTokenFile(home.tokenFile(), token);
        log.info("Created the admin account '{}'; its API token is in {}", ADMIN, home.tokenFile());
    }

    /**
     * Writes a token to a file readable by its owner only (created mode 600, never readable by
     * others, not even briefly).
     *
     * @param file the file (its directory is created)
     * @param token the token
     */
    public static void writeTokenFile(Path file, String token) {
        try {
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
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
            throw new UncheckedIOException("cannot write the token file " + file, e);
        }
    }
}
