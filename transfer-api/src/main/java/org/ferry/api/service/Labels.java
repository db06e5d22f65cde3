package org.ferry.api.service;

import org.ferry.api.error.InvalidRequestException;

/** The task label rule (Globus: at most 128 characters, no line breaks, no outer blanks). */
public final class Labels {

    /** Longest label accepted. */
    public static final int MAX_LABEL_CHARS = 128;

    private Labels() {}

    /**
     * @param label the label or null
     * @return the label
     * @throws InvalidRequestException naming {@code label} if it breaks the rule
     */
    public static String check(String label) {
        if (label == null) {
            return null;
        }
        if (label.length() > MAX_LABEL_CHARS) {
            throw new InvalidRequestException("label", "label must be at most " + MAX_LABEL_CHARS + " characters");
        }
        if (label.indexOf('\n') >= 0 || label.indexOf('\r') >= 0 || !label.equals(label.strip())) {
            throw new InvalidRequestException("label", "label must not hold line breaks or leading/trailing blanks");
        }
        return label;
    }
}
