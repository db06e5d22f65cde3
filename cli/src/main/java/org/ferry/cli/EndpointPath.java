package org.ferry.cli;

/**
 * An {@code ENDPOINT:PATH} argument such as {@code admin#a:/dir/file}.
 *
 * <p>It is split at the first {@code :} after the {@code #} of the endpoint's canonical name
 * (or at the first {@code :} when there is no {@code #}, as with an endpoint id), so a colon
 * inside the path is kept in the path.
 *
 * @param endpoint the endpoint's canonical name or id
 * @param path the path on the endpoint, or null when the argument had none
 */
public record EndpointPath(String endpoint, String path) {

    /**
     * Parses an argument.
     *
     * @param argument e.g. {@code admin#a:/dir}, or {@code admin#a} without a path
     * @return the parsed argument
     * @throws IllegalArgumentException when the endpoint part is empty
     */
    public static EndpointPath parse(String argument) {
        int hash = argument.indexOf('#');
        int colon = argument.indexOf(':', Math.max(hash, 0));
        String endpoint = colon < 0 ? argument : argument.substring(0, colon);
        String path = colon < 0 ? null : argument.substring(colon + 1);
        if (endpoint.isEmpty()) {
            throw new IllegalArgumentException(
                    "expected ENDPOINT:PATH such as admin#a:/dir but was '" + argument + "'");
        }
        return new EndpointPath(endpoint, path == null || path.isEmpty() ? null : path);
    }

    /** Picocli converter: a malformed argument is a usage error (exit code 2). */
    public static final class Converter implements picocli.CommandLine.ITypeConverter<EndpointPath> {
        /**
         * Parses an argument.
         *
         * @param value the raw argument
         * @return the parsed argument
         */
        @Override
        public EndpointPath convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
