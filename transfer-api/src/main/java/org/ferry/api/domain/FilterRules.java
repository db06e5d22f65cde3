package org.ferry.api.domain;

import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.PatternSyntaxException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * A transfer's {@code filter_rules} (service-semantics b.2), as Globus and rsync users know them:
 * evaluated in list order against each name met while crawling a recursive item; the first rule
 * whose type and glob match decides (include or exclude); a name no rule matches is included. An
 * excluded directory prunes its whole subtree. Globs match one name (never a {@code /}) with
 * {@code *}, {@code ?}, {@code [abc]}, {@code [a-z]} and {@code [!abc]}; braces are literal.
 *
 * <p>With {@code delete_destination_extra}, a destination name that the rules exclude is kept,
 * as rsync keeps excluded files unless told otherwise: what is outside the filter is not
 * the mirror's to delete.
 */
public final class FilterRules {

    /** Include or exclude. */
    public enum Method {
        /** the name is transferred */
        INCLUDE,
        /** the name is left out (a directory with everything below it) */
        EXCLUDE
    }

    /** What a rule applies to. */
    public enum Type {
        /** files only */
        FILE,
        /** directories only */
        DIR
    }

    /**
     * One rule.
     *
     * @param method include or exclude
     * @param type file, dir, or null for both
     * @param name the glob
     */
    public record Rule(Method method, Type type, String name) {}

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final FilterRules NONE = new FilterRules(List.of());

    private final List<Rule> rules;
    private final List<PathMatcher> matchers;

    private FilterRules(List<Rule> rules) {
        this.rules = List.copyOf(rules);
        this.matchers = new ArrayList<>(rules.size());
        for (Rule rule : rules) {
            matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + literalBraces(rule.name())));
        }
    }

    /**
     * @param rules the rules in order
     * @return the rules
     * @throws IllegalArgumentException for a glob that cannot be compiled, naming it
     */
    public static FilterRules of(List<Rule> rules) {
        for (Rule rule : rules) {
            if (rule.name() == null || rule.name().isEmpty() || rule.name().contains("/")) {
                throw new IllegalArgumentException("a glob must be a non-empty name without '/'");
            }
        }
        try {
            return new FilterRules(rules);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("not a valid glob: " + e.getDescription(), e);
        }
    }

    /** @return no rules: everything is included */
    public static FilterRules none() {
        return NONE;
    }

    /**
     * @param method {@code include} or {@code exclude} (any case)
     * @return the method
     * @throws IllegalArgumentException for another value
     */
    public static Method method(String method) {
        return Method.valueOf(method.trim().toUpperCase(Locale.ROOT));
    }

    /**
     * @param type {@code file}, {@code dir}, or null/empty for both
     * @return the type or null
     * @throws IllegalArgumentException for another value
     */
    public static Type type(String type) {
        return type == null || type.isBlank() ? null : Type.valueOf(type.trim().toUpperCase(Locale.ROOT));
    }

    /** @return the rules in order */
    public List<Rule> rules() {
        return rules;
    }

    /** @return true if there are no rules */
    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /**
     * @param name one file or directory name (no {@code /})
     * @param directory whether it names a directory
     * @return true if the first matching rule includes it, or no rule matches
     */
    public boolean includes(String name, boolean directory) {
        Path path;
        try {
            path = Path.of(name);
        } catch (InvalidPathException e) {
            return true; // a name the local file system cannot hold matches no glob
        }
        for (int i = 0; i < rules.size(); i++) {
            Rule rule = rules.get(i);
            if (rule.type() != null && (rule.type() == Type.DIR) != directory) {
                continue;
            }
            if (matchers.get(i).matches(path)) {
                return rule.method() == Method.INCLUDE;
            }
        }
        return true;
    }

    /** @return the rules as a JSON array of {@code {method, type, name}} (lower case values) */
    public String toJson() {
        List<Map<String, String>> out = new ArrayList<>();
        for (Rule rule : rules) {
            Map<String, String> r = new LinkedHashMap<>();
            r.put("DATA_TYPE", "filter_rule");
            r.put("method", rule.method().name().toLowerCase(Locale.ROOT));
            if (rule.type() != null) {
                r.put("type", rule.type().name().toLowerCase(Locale.ROOT));
            }
            r.put("name", rule.name());
            out.add(r);
        }
        return JSON.writeValueAsString(out);
    }

    /**
     * @param json what {@link #toJson()} wrote, or null
     * @return the rules (none for null)
     * @throws IllegalStateException if the stored text is not such a list
     */
    public static FilterRules fromJson(String json) {
        if (json == null || json.isBlank()) {
            return NONE;
        }
        try {
            List<Map<String, String>> in = JSON.readValue(json, new TypeReference<>() {});
            List<Rule> rules = new ArrayList<>(in.size());
            for (Map<String, String> r : in) {
                rules.add(new Rule(method(r.get("method")), type(r.get("type")), r.get("name")));
            }
            return of(rules);
        } catch (JacksonException | IllegalArgumentException e) {
            throw new IllegalStateException("Stored filter rules are unreadable: " + json, e);
        }
    }

    /** Braces are literal in Globus globs; Java's glob would read them as alternatives. */
    private static String literalBraces(String glob) {
        return glob.replace("{", "\\{").replace("}", "\\}");
    }
}
