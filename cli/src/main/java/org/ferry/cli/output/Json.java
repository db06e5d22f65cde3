package org.ferry.cli.output;

import tools.jackson.databind.JsonNode;

/** Reads optional fields of API documents as display strings. */
public final class Json {
    private Json() {}

    /**
     * A scalar field as text.
     *
     * @param node the document
     * @param field the field's name
     * @return the field's value as text, or the empty string when it is missing or null
     */
    public static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull() || value.isMissingNode()) {
            return "";
        }
        return value.isContainer() ? value.toString() : value.asString();
    }

    /**
     * A numeric field.
     *
     * @param node the document
     * @param field the field's name
     * @return its value, or 0 when it is missing or null
     */
    public static long number(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? 0 : value.asLong(0);
    }
}
