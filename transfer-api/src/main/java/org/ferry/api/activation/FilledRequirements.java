package org.ferry.api.activation;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ferry.api.service.ApiException;

/**
 * The values of a filled-in {@code activation_requirements} document, by type and name, with the
 * {@code DATA[i]} index of each for error messages.
 */
final class FilledRequirements {

    private final Map<String, String> values = new HashMap<>();
    private final Map<String, Integer> indexes = new HashMap<>();

    private FilledRequirements() {}

    /**
     * @param document the request body
     * @return its values
     * @throws ApiException 400 naming the field if it is not an activation requirements document
     */
    static FilledRequirements of(Map<String, Object> document) {
        if (document == null) {
            throw ApiException.badRequest(null, "Request body must be an activation_requirements document");
        }
        Object dataType = document.get("DATA_TYPE");
        if (dataType != null && !"activation_requirements".equals(dataType)) {
            throw ApiException.badRequest("DATA_TYPE", "DATA_TYPE must be 'activation_requirements'");
        }
        if (!(document.get("DATA") instanceof List<?> data)) {
            throw ApiException.badRequest("DATA", "DATA must be a list of activation_requirement objects");
        }
        FilledRequirements filled = new FilledRequirements();
        for (int i = 0; i < data.size(); i++) {
            String field = "DATA[" + i + "]";
            if (!(data.get(i) instanceof Map<?, ?> item)) {
                throw ApiException.badRequest(field, field + " must be an activation_requirement object");
            }
            if (!(item.get("type") instanceof String type) || !(item.get("name") instanceof String name)) {
                throw ApiException.badRequest(field, field + " needs a type and a name");
            }
            Object value = item.get("value");
            if (value != null
                    && !(value instanceof String)
                    && !(value instanceof Number)
                    && !(value instanceof Boolean)) {
                throw ApiException.badRequest(field + ".value", field + ".value must be a string");
            }
            String key = type + "." + name;
            filled.indexes.put(key, i);
            if (value != null) {
                filled.values.put(key, value.toString());
            }
        }
        return filled;
    }

    /** @return the value of a requirement, or null when absent or empty */
    String get(String type, String name) {
        return values.get(type + "." + name);
    }

    /** @return true when the requirement has a non-blank value */
    boolean has(String type, String name) {
        String value = get(type, name);
        return value != null && !value.isBlank();
    }

    /** @return {@code DATA[i].value} of the requirement, or {@code DATA} when absent */
    String field(String type, String name) {
        Integer index = indexes.get(type + "." + name);
        return index == null ? "DATA" : "DATA[" + index + "].value";
    }
}
