package org.ferry.api.identity;

import java.util.UUID;

/**
 * Who makes an API request, as the services see it (no HTTP, no Spring Security types).
 *
 * @param accountId the account's id
 * @param name the account's user name, the owner part of its endpoints' canonical names
 * @param admin whether the account has the admin role: sees every task and may cancel any
 */
public record Caller(UUID accountId, String name, boolean admin) {

    /**
     * @param owner a resource's owner name
     * @return whether this caller owns it
     */
    public boolean owns(String owner) {
        return name.equals(owner);
    }
}
