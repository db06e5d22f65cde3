package org.ferry.api.web;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.ferry.api.domain.UserAccount;
import org.ferry.api.identity.Caller;
import org.ferry.api.repository.UserAccountRepository;
import org.springframework.stereotype.Component;

/** Looks up the account ids of owner names, for the {@code owner_id} fields of documents. */
@Component
public class OwnerIds {

    private final UserAccountRepository accounts;

    /** @param accounts the account store */
    public OwnerIds(UserAccountRepository accounts) {
        this.accounts = accounts;
    }

    /** @return name to account id of those names that are accounts (one query) */
    public Map<String, String> of(Collection<String> names) {
        return accounts.findByNameIn(new HashSet<>(names)).stream()
                .collect(Collectors.toMap(UserAccount::getName, a -> a.getId().toString()));
    }

    /**
     * As {@link #of(Collection)}, without a query when every name is the caller's own (a user's
     * task or endpoint list): the caller carries its account's id, and names never change.
     *
     * @param caller who asks
     * @param names owner names
     * @return name to account id of those names that are accounts
     */
    public Map<String, String> of(Caller caller, Collection<String> names) {
        if (names.stream().allMatch(caller::owns)) {
            return names.isEmpty()
                    ? Map.of()
                    : Map.of(caller.name(), caller.accountId().toString());
        }
        return of(names);
    }

    /**
     * @param caller who asks
     * @param name an owner name
     * @return its account id (the caller's own without a query), or null
     */
    public String of(Caller caller, String name) {
        return caller.owns(name) ? caller.accountId().toString() : of(name);
    }

    /** @return the account id of one name, or null */
    public String of(String name) {
        return accounts.findByName(name).map(a -> a.getId().toString()).orElse(null);
    }

    /** @return the user name of an account id, or the text itself when it is no account id */
    public String nameOf(String idOrName) {
        try {
            return accounts.findById(UUID.fromString(idOrName))
                    .map(UserAccount::getName)
                    .orElse(idOrName);
        } catch (IllegalArgumentException notAnId) {
            return idOrName;
        }
    }
}
