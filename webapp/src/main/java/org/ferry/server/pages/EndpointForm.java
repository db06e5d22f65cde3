package org.ferry.server.pages;

import org.ferry.api.command.EndpointDefinition;
import org.ferry.api.domain.Endpoint;

/**
 * The endpoint form's fields (create and edit).
 *
 * @param name the name part of {@code owner#name}
 * @param url {@code ftp://host:port} or {@code gsiftp://host:port}
 * @param username the GridFTP login (blank: anonymous)
 * @param password the GridFTP password (blank on edit: keep the stored one)
 * @param description free text
 * @param isPublic whether every user may see and use it (an unchecked box sends nothing: null)
 * @param defaultDirectory where listings start (blank: {@code /})
 * @param sshPrivateKey for {@code sshftp://}: the unencrypted private key the service logs in with
 *     (blank on edit: keep the stored one); never shown back
 * @param sshHostKey for a new {@code sshftp://} endpoint: the host key line to pin (blank: the one
 *     the server shows at creation); ignored on edit (the pin is made once)
 */
public record EndpointForm(
        String name,
        String url,
        String username,
        String password,
        String description,
        Boolean isPublic,
        String defaultDirectory,
        String sshPrivateKey,
        String sshHostKey) {

    /** @return an empty form */
    public static EndpointForm empty() {
        return new EndpointForm("", "", "", "", "", false, "", "", "");
    }

    /**
     * @param endpoint a stored endpoint
     * @return its fields, without the password or SSH key
     */
    public static EndpointForm of(Endpoint endpoint) {
        return new EndpointForm(
                endpoint.getDisplayName(),
                endpoint.getUrl(),
                endpoint.getUsername(),
                "",
                endpoint.getDescription() == null ? "" : endpoint.getDescription(),
                endpoint.isPublic(),
                endpoint.getDefaultDirectory() == null ? "" : endpoint.getDefaultDirectory(),
                "",
                "");
    }

    /**
     * @param creating true for a new endpoint (blank fields are left out and take their
     *     defaults), false for a change (a blank password keeps the stored one)
     * @return the endpoint these fields define
     */
    public EndpointDefinition toDefinition(boolean creating) {
        return new EndpointDefinition(
                null,
                FormValues.blankToNull(name),
                description == null ? "" : description,
                FormValues.blankToNull(url),
                creating
                        ? FormValues.blankToNull(username)
                        : (username == null || username.isBlank() ? "anonymous" : username),
                FormValues.blankToNull(password),
                Boolean.TRUE.equals(isPublic),
                creating
                        ? FormValues.blankToNull(defaultDirectory)
                        : (defaultDirectory == null ? "" : defaultDirectory.trim()),
                null, // myproxy_server: GSI endpoints are made through the API and the CLI
                null, // myproxy_dn
                FormValues.blankToNull(sshPrivateKey),
                creating ? FormValues.blankToNull(sshHostKey) : null,
                null); // one server, the url's
    }

    /**
     * @param apiField the field an error names
     * @return the form field that holds it
     */
    public static String formField(String apiField) {
        if (apiField == null) {
            return null;
        }
        return switch (apiField) {
            case "display_name", "canonical_name" -> "name";
            case "default_directory" -> "defaultDirectory";
            case "public" -> "isPublic";
            case "ssh_private_key" -> "sshPrivateKey";
            case "ssh_host_key" -> "sshHostKey";
            default -> apiField;
        };
    }
}
