package org.ferry.api.service;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.ferry.api.domain.SyncLevel;
import org.springframework.stereotype.Component;

/**
 * Validates a transfer document (rest-api.md, service-semantics b.2) field by field, so that
 * every 400 names the offending field ({@code DATA[0].source_path}). Unknown fields are ignored,
 * as Globus accepts many options Ferry does not implement yet.
 */
@Component
public class TransferRequestParser {

    /** Longest label accepted (Globus limit). */
    public static final int MAX_LABEL_CHARS = 128;

    /**
     * @param body the JSON object as parsed by Jackson (maps, lists, strings, numbers, booleans)
     * @return the validated request
     * @throws ApiException 400 naming the field on any invalid value
     */
    public TransferRequest parse(Map<String, Object> body) {
        if (body == null) {
            throw ApiException.badRequest(null, "Request body must be a transfer document");
        }
        expectDataType(body, "DATA_TYPE", "transfer");
        String submissionId = optionalString(body, "submission_id");
        if (submissionId != null) {
            try {
                UUID.fromString(submissionId);
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("submission_id", "submission_id must be a UUID");
            }
        }
        String source = requiredString(body, "source_endpoint");
        String destination = requiredString(body, "destination_endpoint");
        String label = label(optionalString(body, "label"));
        Instant deadline = deadline(optionalString(body, "deadline"));
        SyncLevel syncLevel = syncLevel(body.get("sync_level"));
        boolean verifyChecksum = optionalBoolean(body, "verify_checksum", "verify_checksum");
        boolean encryptData = optionalBoolean(body, "encrypt_data", "encrypt_data");
        boolean skipActivationCheck = optionalBoolean(body, "skip_activation_check", "skip_activation_check");
        List<TransferRequest.Item> items = items(body.get("DATA"));
        return new TransferRequest(
                submissionId,
                source,
                destination,
                label,
                deadline,
                syncLevel,
                verifyChecksum,
                encryptData,
                skipActivationCheck,
                items);
    }

    private static List<TransferRequest.Item> items(Object data) {
        if (data == null) {
            throw ApiException.badRequest("DATA", "DATA is required: a list of transfer items");
        }
        if (!(data instanceof List<?> list)) {
            throw ApiException.badRequest("DATA", "DATA must be a list of transfer items");
        }
        if (list.isEmpty()) {
            throw ApiException.badRequest("DATA", "DATA must hold at least one transfer item");
        }
        List<TransferRequest.Item> items = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String prefix = "DATA[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> raw)) {
                throw ApiException.badRequest(prefix, prefix + " must be a transfer_item object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> item = (Map<String, Object>) raw;
            expectDataType(item, prefix + ".DATA_TYPE", "transfer_item");
            String sourcePath = ApiPaths.absolute(
                    prefix + ".source_path", stringField(item, "source_path", prefix + ".source_path"));
            String destinationPath = ApiPaths.absolute(
                    prefix + ".destination_path", stringField(item, "destination_path", prefix + ".destination_path"));
            boolean recursive = optionalBoolean(item, "recursive", prefix + ".recursive");
            items.add(new TransferRequest.Item(sourcePath, destinationPath, recursive));
        }
        return items;
    }

    private static void expectDataType(Map<String, Object> object, String field, String expected) {
        Object value = object.get("DATA_TYPE");
        if (value != null && !expected.equals(value)) {
            throw ApiException.badRequest(field, field + " must be '" + expected + "'");
        }
    }

    private static String requiredString(Map<String, Object> body, String field) {
        String value = optionalString(body, field);
        if (value == null || value.isBlank()) {
            throw ApiException.badRequest(field, field + " is required");
        }
        return value;
    }

    private static String optionalString(Map<String, Object> body, String field) {
        return stringField(body, field, field);
    }

    private static String stringField(Map<String, Object> object, String key, String field) {
        Object value = object.get(key);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String s)) {
            throw ApiException.badRequest(field, field + " must be a string");
        }
        return s;
    }

    private static boolean optionalBoolean(Map<String, Object> object, String key, String field) {
        Object value = object.get(key);
        if (value == null) {
            return false;
        }
        if (!(value instanceof Boolean b)) {
            throw ApiException.badRequest(field, field + " must be true or false");
        }
        return b;
    }

    private static String label(String label) {
        if (label == null) {
            return null;
        }
        if (label.length() > MAX_LABEL_CHARS) {
            throw ApiException.badRequest("label", "label must be at most " + MAX_LABEL_CHARS + " characters");
        }
        if (label.indexOf('\n') >= 0 || label.indexOf('\r') >= 0 || !label.equals(label.strip())) {
            throw ApiException.badRequest("label", "label must not hold line breaks or leading/trailing blanks");
        }
        return label;
    }

    private static Instant deadline(String deadline) {
        if (deadline == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(deadline).toInstant();
        } catch (DateTimeParseException withoutOffset) {
            try {
                // Globus advises UTC; a time without offset is taken as UTC
                return LocalDateTime.parse(deadline).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e) {
                throw ApiException.badRequest("deadline", "deadline must be an ISO-8601 time");
            }
        }
    }

    private static SyncLevel syncLevel(Object value) {
        try {
            if (value == null) {
                return null;
            }
            if (value instanceof Integer || value instanceof Long) {
                return SyncLevel.ofLevel(((Number) value).intValue());
            }
            if (value instanceof String s) {
                return s.matches("[0-3]") ? SyncLevel.ofLevel(Integer.parseInt(s)) : SyncLevel.ofName(s);
            }
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("sync_level", e.getMessage());
        }
        throw ApiException.badRequest("sync_level", "sync_level must be null, 0-3, or exists/size/mtime/checksum");
    }
}
