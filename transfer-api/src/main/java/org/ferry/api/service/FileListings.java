package org.ferry.api.service;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.mover.protocol.FileInfo;

/**
 * The {@code filter} and {@code orderby} of {@code ls} over a listing already fetched (GridFTP
 * has neither).
 *
 * <p>Filter: clauses separated by {@code /}, all must hold. {@code name:~GLOB} (glob with
 * {@code * ? [] [!]}), {@code name:!~GLOB}, {@code name:A,B} (one of), {@code name:!A};
 * {@code type:file,dir,link}; {@code size:MIN,MAX} and {@code last_modified:MIN,MAX} (either
 * end may be empty; times ISO-8601); {@code permissions:0644,0755}. Order: comma-separated
 * {@code FIELD [ASC|DESC]} of {@code name}, {@code type}, {@code size}, {@code last_modified};
 * default directories first, then by name.
 */
public final class FileListings {

    private FileListings() {}

    /**
     * @param entries the listing
     * @param showHidden whether names starting with {@code .} are kept
     * @param filters the {@code filter} parameters (each may hold several clauses)
     * @param orderby the {@code orderby} parameter or null
     * @return the entries kept, in order
     * @throws InvalidRequestException naming {@code filter} or {@code orderby} for a clause it cannot read
     */
    public static List<FileInfo> apply(
            List<FileInfo> entries, boolean showHidden, List<String> filters, String orderby) {
        Predicate<FileInfo> keep = f -> showHidden || !f.name().startsWith(".");
        for (String filter : filters == null ? List.<String>of() : filters) {
            if (filter == null || filter.isBlank()) {
                continue;
            }
            for (String clause : filter.split("/")) {
                keep = keep.and(clause(clause));
            }
        }
        List<FileInfo> kept = new ArrayList<>(entries.stream().filter(keep).toList());
        kept.sort(order(orderby));
        return kept;
    }

    /** @return {@code file}, {@code dir}, {@code link} or {@code other} */
    public static String type(FileInfo info) {
        return switch (info.type()) {
            case DIRECTORY -> "dir";
            case SYMLINK -> "link";
            case FILE -> "file";
            default -> "other";
        };
    }

    private static Predicate<FileInfo> clause(String clause) {
        int colon = clause.indexOf(':');
        if (colon <= 0) {
            throw new InvalidRequestException("filter", "filter clause '" + clause + "' must be FIELD:VALUE");
        }
        String field = clause.substring(0, colon).trim();
        String value = clause.substring(colon + 1);
        return switch (field) {
            case "name" -> text(value, FileInfo::name);
            case "type" -> text(value, FileListings::type);
            case "permissions" -> text(value, f -> f.unixMode() < 0 ? "" : String.format("%04o", f.unixMode()));
            case "size" -> range(clause, value, f -> f.sizeBytes(), Long::parseLong);
            case "last_modified" ->
                range(
                        clause,
                        value,
                        f -> f.modified() == null
                                ? Long.MIN_VALUE
                                : f.modified().toEpochMilli(),
                        v -> {
                            Instant at = TimeValues.parse("filter", v);
                            return at.toEpochMilli();
                        });
            default ->
                throw new InvalidRequestException(
                        "filter",
                        "filter field '" + field + "' must be name, type, size, last_modified or permissions");
        };
    }

    private interface Field {
        String of(FileInfo info);
    }

    private static Predicate<FileInfo> text(String value, Field field) {
        if (value.startsWith("!~")) {
            PathMatcher glob = glob(value.substring(2));
            return f -> !glob.matches(Path.of(field.of(f)));
        }
        if (value.startsWith("~")) {
            PathMatcher glob = glob(value.substring(1));
            return f -> glob.matches(Path.of(field.of(f)));
        }
        if (value.startsWith("!")) {
            List<String> not = List.of(value.substring(1).split(","));
            return f -> !not.contains(field.of(f));
        }
        List<String> any = List.of(value.split(","));
        return f -> any.contains(field.of(f));
    }

    private static PathMatcher glob(String glob) {
        try {
            // '/' never occurs in a name; the file system's glob syntax is Globus's (* ? [] [!])
            return FileSystems.getDefault().getPathMatcher("glob:" + glob.replace("/", ""));
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("filter", "filter glob '" + glob + "' is malformed");
        }
    }

    private interface Number {
        long of(FileInfo info);
    }

    private interface Parser {
        long parse(String text);
    }

    private static Predicate<FileInfo> range(String clause, String value, Number field, Parser parser) {
        String[] ends = value.split(",", -1);
        if (ends.length > 2) {
            throw new InvalidRequestException("filter", "filter clause '" + clause + "' must be FIELD:MIN,MAX");
        }
        long min;
        long max;
        try {
            min = ends[0].isBlank() ? Long.MIN_VALUE : parser.parse(ends[0].trim());
            max = ends.length < 2 ? min : ends[1].isBlank() ? Long.MAX_VALUE : parser.parse(ends[1].trim());
        } catch (NumberFormatException e) {
            throw new InvalidRequestException("filter", "filter clause '" + clause + "' must hold numbers");
        }
        return f -> field.of(f) >= min && field.of(f) <= max;
    }

    private static Comparator<FileInfo> order(String orderby) {
        Comparator<FileInfo> dirsFirst = Comparator.comparing(f -> f.isDirectory() ? 0 : 1);
        Comparator<FileInfo> byName = Comparator.comparing(FileInfo::name);
        if (orderby == null || orderby.isBlank()) {
            return dirsFirst.thenComparing(byName);
        }
        Comparator<FileInfo> order = null;
        for (String part : orderby.split(",")) {
            String[] words = part.trim().split("\\s+");
            Comparator<FileInfo> one = switch (words[0]) {
                case "name" -> byName;
                case "type" -> Comparator.comparing(FileListings::type);
                case "size" -> Comparator.comparingLong(FileInfo::sizeBytes);
                case "last_modified" ->
                    Comparator.comparing(FileInfo::modified, Comparator.nullsFirst(Comparator.naturalOrder()));
                default ->
                    throw new InvalidRequestException(
                            "orderby", "orderby field '" + words[0] + "' must be name, type, size or last_modified");
            };
            if (words.length > 2
                    || (words.length == 2 && !words[1].toUpperCase(Locale.ROOT).matches("ASC|DESC"))) {
                throw new InvalidRequestException("orderby", "orderby must be FIELD [ASC|DESC], ...");
            }
            if (words.length == 2 && words[1].equalsIgnoreCase("DESC")) {
                one = one.reversed();
            }
            order = order == null ? one : order.thenComparing(one);
        }
        return order.thenComparing(byName);
    }
}
