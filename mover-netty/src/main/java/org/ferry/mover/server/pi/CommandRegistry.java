package org.ferry.mover.server.pi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.ferry.mover.protocol.FtpCommand;

/**
 * The command table: handlers by verb. Compound verbs ({@code SITE HELP}, {@code OPTS RETR}) are
 * looked up by verb plus the first word of the argument first, then by the bare verb. A verb with
 * no handler is unknown ({@code 500 Invalid command.}, RFC 959 section 4.2). FEAT
 * (RFC 2389) is built from the handlers' {@link CommandHandler#features()}. Immutable once built.
 */
public final class CommandRegistry {

    /** A handler found for a command, with the argument it should get. */
    public record Resolved(CommandHandler handler, String argument) {}

    private final Map<String, CommandHandler> handlers;
    /** The verbs that have compound forms ({@code SITE}, {@code OPTS}): only theirs are looked up twice. */
    private final Set<String> compoundVerbs = new HashSet<>();

    private CommandRegistry(Map<String, CommandHandler> handlers) {
        this.handlers = Collections.unmodifiableMap(new LinkedHashMap<>(handlers));
        for (String verb : handlers.keySet()) {
            int space = verb.indexOf(' ');
            if (space > 0) {
                compoundVerbs.add(verb.substring(0, space));
            }
        }
    }

    /**
     * @param handlers the handlers; a later one replaces an earlier one with the same verb
     * @return a registry over them
     */
    public static CommandRegistry of(Collection<? extends CommandHandler> handlers) {
        Map<String, CommandHandler> map = new LinkedHashMap<>();
        for (CommandHandler handler : handlers) {
            map.put(handler.verb(), handler);
        }
        return new CommandRegistry(map);
    }

    /**
     * @param more handlers to add; one with a verb already present replaces that handler in place
     * @return a new registry with them (this one is unchanged)
     */
    public CommandRegistry with(Collection<? extends CommandHandler> more) {
        Map<String, CommandHandler> map = new LinkedHashMap<>(handlers);
        for (CommandHandler handler : more) {
            map.put(handler.verb(), handler);
        }
        return new CommandRegistry(map);
    }

    /**
     * @param command a decoded command
     * @return its handler and argument, or empty if the verb is unknown
     */
    public Optional<Resolved> lookup(FtpCommand command) {
        String argument = command.argument();
        // RETR's path is not upper-cased and looked up as a compound verb for every file
        if (!argument.isEmpty() && compoundVerbs.contains(command.verb())) {
            int space = argument.indexOf(' ');
            String sub = (space < 0 ? argument : argument.substring(0, space)).toUpperCase(Locale.ROOT);
            CommandHandler compound = handlers.get(command.verb() + " " + sub);
            if (compound != null) {
                return Optional.of(new Resolved(compound, space < 0 ? "" : argument.substring(space + 1)));
            }
        }
        CommandHandler handler = handlers.get(command.verb());
        return handler == null ? Optional.empty() : Optional.of(new Resolved(handler, argument));
    }

    /** @return FEAT lines, in registration order, without duplicates */
    public List<String> features() {
        List<String> features = new ArrayList<>();
        for (CommandHandler handler : handlers.values()) {
            for (String feature : handler.features()) {
                if (!features.contains(feature)) {
                    features.add(feature);
                }
            }
        }
        return features;
    }

    /** @return the registered verbs, sorted (compound verbs included, e.g. {@code SITE HELP}) */
    public List<String> verbs() {
        return List.copyOf(new TreeSet<>(handlers.keySet()));
    }
}
