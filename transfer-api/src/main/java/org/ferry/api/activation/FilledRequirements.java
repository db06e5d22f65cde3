package org.ferry.api.activation;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ferry.api.document.ActivationRequirementDocument;
import org.ferry.api.document.ActivationRequirementsDocument;
import org.ferry.api.error.InvalidRequestException;

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
     * @throws InvalidRequestException naming the field if it is not an activation requirements
     *     document
     */
    static FilledRequirements of(ActivationRequirementsDocument document) {
        if (document == null) {
            throw new InvalidRequestException(null, "Request body must be an activation_requirements document");
        }
        if (document.dataType() != null && !"activation_requirements".equals(document.dataType())) {
            throw new InvalidRequestException("DATA_TYPE", "DATA_TYPE must be 'activation_requirements'");
        }
        List<ActivationRequirementDocument> data = document.requirements();
        if (data == null) {
            throw new InvalidRequestException("DATA", "DATA must be a list of activation_requirement objects");
        }
        FilledRequirements filled = new FilledRequirements();
        for (int i = 0; i < data.size(); i++) {
            String field = "DATA[" + i + "]";
            ActivationRequirementDocument item = data.get(i);
            if (item == null || item.type() == null || item.name() == null) {
                throw new InvalidRequestException(field, field + " needs a type and a name");
            }
            if (item.dataType() != null && !"activation_requirement".equals(item.dataType())) {
                throw new InvalidRequestException(
                        field + ".DATA_TYPE", field + ".DATA_TYPE must be 'activation_requirement'");
            }
            String key = item.type() + "." + item.name();
            filled.indexes.put(key, i);
            if (item.value() != null) {
                filled.values.put(key, item.value());
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

    /**
     * @param type the requirement's type
     * @param name its name, a lifetime in whole hours
     * @param defaultHours what an absent or blank value means
     * @param maxHours the most allowed
     * @return the hours, 1 to {@code maxHours}
     * @throws InvalidRequestException naming {@code DATA[i].value} for anything else
     */
    int hours(String type, String name, int defaultHours, int maxHours) {
        String value = get(type, name);
        if (value == null || value.isBlank()) {
            return defaultHours;
        }
        int hours;
        try {
            hours = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            hours = -1;
        }
        if (hours < 1 || hours > maxHours) {
            throw new InvalidRequestException(field(type, name), name + " must be 1-" + maxHours);
        }
        return hours;
    }

    /** @return {@code DATA[i].value} of the requirement, or {@code DATA} when absent */
    String field(String type, String name) {
        Integer index = indexes.get(type + "." + name);
        return index == null ? "DATA" : "DATA[" + index + "].value";
    }
}
