package org.ferry.api.web;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.ferry.api.document.ResultDocument;
import org.ferry.api.document.SshKeyDocument;
import org.ferry.api.document.SshKeyRequest;
import org.ferry.api.domain.SshKey;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.identity.Caller;
import org.ferry.api.identity.SshKeyService;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * The caller's SSH public keys (Ferry's own resource, issue 37): the keys that sign in to
 * ferry-server's SSH port ({@code ferry.ssh.port}), where the {@code ferry} commands run as the
 * caller. {@code ferry ssh-key add|list|remove} calls these.
 */
@RestController
@RequestMapping(path = "/v0.10", produces = "application/json")
public class SshKeyController {

    private final SshKeyService keys;

    /** @param keys the caller's keys */
    public SshKeyController(SshKeyService keys) {
        this.keys = keys;
    }

    /** {@code POST /ssh_key}: registers a public key to the caller's account (201; 409 if it is already). */
    @PostMapping("/ssh_key")
    @ResponseStatus(HttpStatus.CREATED)
    public SshKeyDocument add(Caller caller, @RequestBody(required = false) SshKeyRequest body) {
        if (body == null) {
            throw new InvalidRequestException("public_key", "public_key is required: one line of an OpenSSH .pub file");
        }
        if (body.dataType() != null && !"ssh_key".equals(body.dataType())) {
            throw new InvalidRequestException("DATA_TYPE", "DATA_TYPE must be 'ssh_key'");
        }
        return document(keys.add(caller, body.publicKey(), body.description()), caller.name());
    }

    /** {@code GET /ssh_key_list}: the caller's keys, oldest first. */
    @GetMapping("/ssh_key_list")
    public SshKeyListDocument list(Caller caller) {
        return new SshKeyListDocument(
                "ssh_key_list",
                keys.list(caller).stream().map(k -> document(k, caller.name())).toList());
    }

    /** {@code DELETE /ssh_key/{id}}: removes one of the caller's keys, by id or {@code SHA256:} fingerprint. */
    @DeleteMapping("/ssh_key/{keyId}")
    public ResultDocument remove(Caller caller, @PathVariable("keyId") String keyId, HttpServletRequest request) {
        keys.remove(caller, keyId);
        return new ResultDocument(
                "result", "Deleted", "The SSH key was removed", RequestIds.resource(request), RequestIds.of(request));
    }

    private static SshKeyDocument document(SshKey key, String username) {
        return new SshKeyDocument(
                "ssh_key",
                key.getId().toString(),
                username,
                key.getFingerprint(),
                key.getPublicKey(),
                key.getDescription(),
                ApiTime.format(key.getCreatedTime()),
                ApiTime.format(key.getLastUsedTime()));
    }

    /**
     * @param dataType {@code ssh_key_list}
     * @param data the keys
     */
    public record SshKeyListDocument(
            @JsonProperty("DATA_TYPE") String dataType,
            @JsonProperty("DATA") List<SshKeyDocument> data) {}
}
