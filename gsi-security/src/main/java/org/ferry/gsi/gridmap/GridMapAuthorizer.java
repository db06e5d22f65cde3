package org.ferry.gsi.gridmap;

/**
 * Decides which local account an authenticated GSI identity gets, as the GridFTP server does on
 * {@code USER}/{@code PASS} after {@code AUTH GSSAPI} (reference 4.4): {@code :globus-mapping:}
 * (or no user) means "the default mapping", any other name must be one of the DN's users.
 */
public final class GridMapAuthorizer {
    /** The user name globus-url-copy sends to ask for the default mapping. */
    public static final String GLOBUS_MAPPING = ":globus-mapping:";

    private final GridMap gridMap;

    /** @param gridMap the mapping to enforce */
    public GridMapAuthorizer(GridMap gridMap) {
        this.gridMap = gridMap;
    }

    /**
     * @param identity      the peer identity, oneline DN (from a validated chain)
     * @param requestedUser the USER argument, {@link #GLOBUS_MAPPING}, or null/empty for default
     * @return the local user name to run as
     * @throws AuthorizationException if the DN is not mapped or not mapped to that user
     */
    public String authorize(String identity, String requestedUser) throws AuthorizationException {
        var users = gridMap.users(identity);
        if (users.isEmpty()) {
            throw new AuthorizationException("Gridmap lookup failure: Could not map " + identity
                    + " (no entry in grid-mapfile " + gridMap.source() + ")");
        }
        if (requestedUser == null || requestedUser.isEmpty() || requestedUser.equals(GLOBUS_MAPPING)) {
            return users.get(0);
        }
        if (!users.contains(requestedUser)) {
            throw new AuthorizationException("Invalid user: " + identity + " is not allowed to log in as "
                    + requestedUser + " by grid-mapfile " + gridMap.source());
        }
        return requestedUser;
    }
}
