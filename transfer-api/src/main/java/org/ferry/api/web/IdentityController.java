package org.ferry.api.web;

import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.List;
import org.ferry.api.document.AccessTokenDocument;
import org.ferry.api.document.AccessTokenRequest;
import org.ferry.api.document.ResultDocument;
import org.ferry.api.document.UserDocument;
import org.ferry.api.document.UserRequest;
import org.ferry.api.domain.AccessToken;
import org.ferry.api.domain.Role;
import org.ferry.api.domain.UserAccount;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.identity.AccessTokenService;
import org.ferry.api.identity.AccountService;
import org.ferry.api.identity.Caller;
import org.ferry.api.service.TimeValues;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Ferry's own identity resources (no Globus counterpart: Globus Auth is a separate service):
 * access tokens of the caller, and accounts (admins only).
 */
@RestController
@RequestMapping(path = "/v0.10", produces = "application/json")
public class IdentityController {

    private final AccessTokenService tokens;
    private final AccountService accounts;

    /**
     * @param tokens access tokens
     * @param accounts accounts
     */
    public IdentityController(AccessTokenService tokens, AccountService accounts) {
        this.tokens = tokens;
        this.accounts = accounts;
    }

    /**
     * {@code POST /access_token}: a new token of the caller's (201; the token is only in this
     * answer). {@code ferry login} calls it with the user's password.
     */
    @PostMapping("/access_token")
    @ResponseStatus(HttpStatus.CREATED)
    public AccessTokenDocument createToken(Caller caller, @RequestBody(required = false) AccessTokenRequest body) {
        AccessTokenRequest request = body == null ? new AccessTokenRequest(null, null, null, null) : body;
        if (request.dataType() != null && !"access_token".equals(request.dataType())) {
            throw new InvalidRequestException("DATA_TYPE", "DATA_TYPE must be 'access_token'");
        }
        Instant expires = TimeValues.parse("expires_time", request.expiresTime());
        if (request.expiresIn() != null) {
            if (expires != null) {
                throw new InvalidRequestException("expires_in", "give expires_in or expires_time, not both");
            }
            if (request.expiresIn() <= 0) {
                throw new InvalidRequestException("expires_in", "expires_in must be a positive number of seconds");
            }
            expires = Instant.now().plusSeconds(request.expiresIn());
        }
        AccessTokenService.Issued issued = tokens.create(caller, request.description(), expires);
        return token(issued.row(), caller.name(), issued.token());
    }

    /** {@code GET /access_token_list}: the caller's tokens (never the tokens themselves). */
    @GetMapping("/access_token_list")
    public TokenListDocument tokenList(Caller caller) {
        return new TokenListDocument(
                "access_token_list",
                tokens.list(caller).stream()
                        .map(t -> token(t, caller.name(), null))
                        .toList());
    }

    /** {@code DELETE /access_token/{id}}: revokes one of the caller's tokens (an admin: anyone's). */
    @DeleteMapping("/access_token/{tokenId}")
    public ResultDocument revokeToken(
            Caller caller, @PathVariable("tokenId") String tokenId, HttpServletRequest request) {
        tokens.revoke(caller, tokenId);
        return new ResultDocument(
                "result",
                "Revoked",
                "The access token was revoked",
                RequestIds.resource(request),
                RequestIds.of(request));
    }

    /** {@code POST /user} (admin): creates an account; 201. */
    @PostMapping("/user")
    @ResponseStatus(HttpStatus.CREATED)
    public UserDocument createUser(Caller caller, @RequestBody UserRequest body) {
        AccountService.requireAdmin(caller);
        if (body.dataType() != null && !"user".equals(body.dataType())) {
            throw new InvalidRequestException("DATA_TYPE", "DATA_TYPE must be 'user'");
        }
        UserAccount account = accounts.create(body.username(), role(body.role()), body.password());
        if (Boolean.TRUE.equals(body.disabled())) {
            account = accounts.update(account.getName(), true, null, null);
        }
        if (body.email() != null) {
            account = accounts.setEmail(account.getName(), body.email());
        }
        return user(account);
    }

    /** {@code GET /user_list} (admin): every account. */
    @GetMapping("/user_list")
    public UserListDocument userList(Caller caller) {
        AccountService.requireAdmin(caller);
        return new UserListDocument(
                "user_list",
                accounts.list().stream().map(IdentityController::user).toList());
    }

    /** {@code GET /user/{name}} (admin): one account. */
    @GetMapping("/user/{name}")
    public UserDocument getUser(Caller caller, @PathVariable("name") String name) {
        AccountService.requireAdmin(caller);
        return user(accounts.get(name));
    }

    /** {@code PUT /user/{name}} (admin): changes role, password or disabled. */
    @PutMapping("/user/{name}")
    public UserDocument updateUser(Caller caller, @PathVariable("name") String name, @RequestBody UserRequest body) {
        AccountService.requireAdmin(caller);
        if (body.username() != null && !body.username().equals(name)) {
            throw new InvalidRequestException("username", "username cannot change");
        }
        UserAccount account = accounts.update(name, body.disabled(), role(body.role()), body.password());
        if (body.email() != null) {
            account = accounts.setEmail(name, body.email());
        }
        return user(account);
    }

    private static Role role(String role) {
        if (role == null) {
            return null;
        }
        try {
            return Role.valueOf(role.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("role", "role must be USER or ADMIN");
        }
    }

    private static AccessTokenDocument token(AccessToken row, String username, String token) {
        return new AccessTokenDocument(
                "access_token",
                row.getId().toString(),
                username,
                row.getDescription(),
                ApiTime.format(row.getCreatedTime()),
                ApiTime.format(row.getExpiresTime()),
                ApiTime.format(row.getLastUsedTime()),
                token);
    }

    private static UserDocument user(UserAccount account) {
        return new UserDocument(
                "user",
                account.getId().toString(),
                account.getName(),
                account.getRole().name(),
                account.isDisabled(),
                account.getPasswordHash() != null,
                ApiTime.format(account.getCreatedTime()),
                account.getEmail());
    }

    /**
     * @param dataType {@code access_token_list}
     * @param data the tokens
     */
    public record TokenListDocument(
            @com.fasterxml.jackson.annotation.JsonProperty("DATA_TYPE")
            String dataType,

            @com.fasterxml.jackson.annotation.JsonProperty("DATA")
            List<AccessTokenDocument> data) {}

    /**
     * @param dataType {@code user_list}
     * @param data the accounts
     */
    public record UserListDocument(
            @com.fasterxml.jackson.annotation.JsonProperty("DATA_TYPE")
            String dataType,

            @com.fasterxml.jackson.annotation.JsonProperty("DATA")
            List<UserDocument> data) {}
}
