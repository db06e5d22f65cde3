package org.ferry.api.identity;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.domain.Role;
import org.ferry.api.domain.UserAccount;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.error.PermissionDeniedException;
import org.ferry.api.repository.UserAccountRepository;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Local accounts: create, list, change (role, password, disabled), and password checks.
 * Passwords are stored only as {@link PasswordEncoder} hashes (bcrypt).
 */
@Service
public class AccountService {

    /** Shortest password accepted. */
    public static final int MIN_PASSWORD_CHARS = 8;
    /** Longest password accepted (bcrypt reads at most 72 bytes). */
    public static final int MAX_PASSWORD_CHARS = 72;
    /** User names: 1-64 letters, digits, {@code . _ -}, starting with a letter or digit. */
    public static final String NAME_PATTERN = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}";

    private final UserAccountRepository accounts;
    private final PasswordEncoder passwords;
    private final TokenCache verifiedTokens;
    /** A hash of a random password, compared against when the name is unknown. */
    private final String dummyHash;

    /**
     * @param accounts the account store
     * @param passwords hashes and checks passwords
     * @param verifiedTokens the bearer tokens verified lately, forgotten when their account changes
     */
    public AccountService(UserAccountRepository accounts, PasswordEncoder passwords, TokenCache verifiedTokens) {
        this.accounts = accounts;
        this.passwords = passwords;
        this.verifiedTokens = verifiedTokens;
        this.dummyHash = passwords.encode(UUID.randomUUID().toString());
    }

    /**
     * @param caller the caller
     * @throws PermissionDeniedException unless the caller is an admin
     */
    public static void requireAdmin(Caller caller) {
        if (!caller.admin()) {
            throw new PermissionDeniedException(null, "This needs the admin role; " + caller.name() + " is a user");
        }
    }

    /**
     * Creates an account.
     *
     * @param name the user name
     * @param role the role
     * @param password the password, or null for an account without one (it logs in with a
     *     token made for it, a certificate or OIDC)
     * @return the account
     * @throws InvalidRequestException naming {@code username} or {@code password}
     * @throws ConflictException naming {@code username} if the name is taken
     */
    @Transactional
    public UserAccount create(String name, Role role, String password) {
        if (name == null || !name.matches(NAME_PATTERN)) {
            throw new InvalidRequestException(
                    "username", "username must be 1-64 letters, digits or . _ -, starting with a letter or digit");
        }
        if (accounts.findByName(name).isPresent()) {
            throw new ConflictException("username", "An account named " + name + " exists");
        }
        return accounts.save(new UserAccount(name, role == null ? Role.USER : role, encode(password)));
    }

    /** @return every account by name */
    @Transactional(readOnly = true)
    public List<UserAccount> list() {
        return accounts.findAllByOrderByName();
    }

    /**
     * @param name a user name
     * @return the account
     * @throws NotFoundException naming {@code username}
     */
    @Transactional(readOnly = true)
    public UserAccount get(String name) {
        return accounts.findByName(name)
                .orElseThrow(() -> new NotFoundException("username", "No account named '" + name + "'"));
    }

    /**
     * Changes an account; null arguments keep a value.
     *
     * @param name the user name
     * @param disabled whether it may not log in
     * @param role the new role
     * @param password a new password
     * @return the account
     */
    @Transactional
    public UserAccount update(String name, Boolean disabled, Role role, String password) {
        UserAccount account = get(name);
        if (disabled != null) {
            account.setDisabled(disabled);
        }
        if (role != null) {
            account.setRole(role);
        }
        if (password != null) {
            account.setPasswordHash(encode(password));
        }
        verifiedTokens.forgetAccount(account.getId()); // disabled or role changed: its tokens' checks are stale
        return accounts.save(account);
    }

    /**
     * Sets or clears the account's e-mail address (where its tasks' notifications go).
     *
     * @param name the user name
     * @param email an address such as {@code alice@example.org}, or empty to clear it
     * @return the account
     * @throws InvalidRequestException naming {@code email} if it does not look like one address
     */
    @Transactional
    public UserAccount setEmail(String name, String email) {
        UserAccount account = get(name);
        String address = email == null ? "" : email.strip();
        if (!address.isEmpty() && (address.length() > 254 || !address.matches("[^@\\s<>,;]+@[^@\\s<>,;]+"))) {
            throw new InvalidRequestException("email", "email must be one address such as alice@example.org");
        }
        account.setEmail(address.isEmpty() ? null : address);
        return accounts.save(account);
    }

    /**
     * Checks a user name and password.
     *
     * @param name the user name
     * @param password the password
     * @return the caller, or empty if the name is unknown, the account has no password or is
     *     disabled, or the password does not match
     */
    @Transactional(readOnly = true)
    public Optional<Caller> authenticate(String name, String password) {
        Optional<UserAccount> account = accounts.findByName(name);
        if (account.isEmpty()) {
            passwords.matches(password, dummyHash); // as slow as a real check: no name probing by timing
            return Optional.empty();
        }
        UserAccount a = account.get();
        if (a.getPasswordHash() == null || a.isDisabled() || !passwords.matches(password, a.getPasswordHash())) {
            return Optional.empty();
        }
        return Optional.of(caller(a));
    }

    /**
     * @param name a user name
     * @return the enabled account's caller, or empty if unknown or disabled
     */
    @Transactional(readOnly = true)
    public Optional<Caller> enabled(String name) {
        return accounts.findByName(name).filter(a -> !a.isDisabled()).map(AccountService::caller);
    }

    /** @return the caller an account acts as */
    public static Caller caller(UserAccount account) {
        return new Caller(account.getId(), account.getName(), account.getRole() == Role.ADMIN);
    }

    private String encode(String password) {
        if (password == null) {
            return null;
        }
        if (password.length() < MIN_PASSWORD_CHARS || password.length() > MAX_PASSWORD_CHARS) {
            throw new InvalidRequestException(
                    "password", "password must be " + MIN_PASSWORD_CHARS + "-" + MAX_PASSWORD_CHARS + " characters");
        }
        return passwords.encode(password);
    }
}
