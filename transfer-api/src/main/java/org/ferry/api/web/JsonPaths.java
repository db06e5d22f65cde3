package org.ferry.api.web;

import tools.jackson.databind.DatabindException;

/** Writes where in a JSON document a read failed the way errors name fields: {@code DATA[0].source_path}. */
final class JsonPaths {

    private JsonPaths() {}

    /** @return the path of the failure, e.g. {@code DATA[0].recursive} */
    static String of(DatabindException e) {
        StringBuilder path = new StringBuilder();
        for (var reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }
}
