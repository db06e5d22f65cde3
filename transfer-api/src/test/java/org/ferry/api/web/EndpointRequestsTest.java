package org.ferry.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.ferry.api.command.EndpointDefinition;
import org.ferry.api.document.EndpointDocument;
import org.ferry.api.document.EndpointRequest;
import org.ferry.api.document.ServerDocument;
import org.ferry.api.document.ServerRequest;
import org.ferry.api.error.FerryException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Endpoint and server documents: the server list ({@code DATA}) of a create makes the endpoint's
 * servers (a client that creates an endpoint with three servers gets three, not one), and a
 * read-only field is refused by name unless it is sent back as the endpoint has it.
 */
class EndpointRequestsTest {

    final JsonMapper json = JsonMapper.builder().build();
    final EndpointRequests requests = new EndpointRequests(json);

    static final EndpointDocument CURRENT = new EndpointDocument(
            "endpoint",
            "0f6f7c3e-0000-4000-8000-000000000001",
            "alice#lab",
            "lab",
            "alice",
            "0f6f7c3e-0000-4000-8000-0000000000aa",
            null,
            "ftp://a.example:2811",
            "anonymous",
            false,
            null,
            true,
            -1,
            null,
            null,
            null,
            null,
            "GCP_mapped_collection",
            false,
            false,
            List.of(new ServerDocument("server", 7, "a.example", 2811, "ftp", "ftp://a.example:2811", null)),
            null,
            null,
            null,
            null,
            null,
            null);

    private EndpointRequest request(Map<String, Object> fields) {
        return json.convertValue(fields, EndpointRequest.class);
    }

    private static String field(Runnable mapping) {
        try {
            mapping.run();
        } catch (FerryException e) {
            return e.field();
        }
        throw new AssertionError("accepted");
    }

    @Test
    void aCreateWithThreeServersGetsThreeInOrder() {
        EndpointDefinition created = requests.create(request(Map.of(
                "canonical_name",
                "alice#lab",
                "DATA",
                List.of(
                        Map.of("DATA_TYPE", "server", "uri", "gsiftp://a.example:2811"),
                        Map.of("hostname", "b.example", "port", 2812, "scheme", "gsiftp"),
                        Map.of("uri", "gsiftp://c.example", "subject", "/CN=host/c.example")))));
        assertThat(created.servers()).hasSize(3);
        assertThat(created.servers().get(0).uri()).isEqualTo("gsiftp://a.example:2811");
        assertThat(created.servers().get(1).hostname()).isEqualTo("b.example");
        assertThat(created.servers().get(2).subject()).isEqualTo("/CN=host/c.example");
        assertThat(field(() -> requests.create(request(
                        Map.of("canonical_name", "alice#lab", "DATA", List.of(Map.of("DATA_TYPE", "endpoint")))))))
                .isEqualTo("DATA[0].DATA_TYPE");
    }

    @Test
    void aReadOnlyFieldOfANewEndpointIsRefusedByName() {
        assertThat(field(() -> requests.create(request(
                        Map.of("canonical_name", "alice#lab", "url", "ftp://a.example", "owner_string", "alice")))))
                .isEqualTo("owner_string");
        assertThat(field(() -> requests.create(
                        request(Map.of("canonical_name", "alice#lab", "url", "ftp://a.example", "activated", true)))))
                .isEqualTo("activated");
    }

    @Test
    void aFetchedDocumentSentBackWholeChangesNothingAndAnythingElseReadOnlyIsRefused() {
        JsonNode fetched = json.valueToTree(CURRENT);
        EndpointDefinition change = requests.update(json.treeToValue(fetched, EndpointRequest.class), CURRENT);
        assertThat(change.servers()).isNull();
        assertThat(field(() -> requests.update(request(Map.of("owner_string", "bob")), CURRENT)))
                .isEqualTo("owner_string");
        assertThat(field(() -> requests.update(request(Map.of("entity_type", "GCSv5_endpoint")), CURRENT)))
                .isEqualTo("entity_type");
        assertThat(field(() -> requests.update(request(Map.of("expires_in", 3600)), CURRENT)))
                .isEqualTo("expires_in");
        assertThat(field(() -> requests.update(
                        request(Map.of("DATA", List.of(Map.of("uri", "ftp://b.example:2811")))), CURRENT)))
                .as("the server list changes through /endpoint/{id}/server")
                .isEqualTo("DATA");
    }

    @Test
    void theAgentsReadOnlyFieldsAreRefusedByNameNotDropped() {
        assertThat(field(() -> requests.create(
                        request(Map.of("canonical_name", "alice#lab", "url", "ftp://a.example", "gcp_revoked", true)))))
                .isEqualTo("gcp_revoked");
        assertThat(field(() -> requests.create(request(
                        Map.of("canonical_name", "alice#lab", "url", "ftp://a.example", "gcp_connected", true)))))
                .isEqualTo("gcp_connected");
        assertThat(field(() -> requests.update(request(Map.of("globus_connect_setup_key", "fc1-x")), CURRENT)))
                .isEqualTo("globus_connect_setup_key");
        assertThat(field(() -> requests.update(request(Map.of("gcp_revoked", true)), CURRENT)))
                .isEqualTo("gcp_revoked");
        // the agent's live status may change between GET and PUT: a document sent back is not refused
        assertThat(requests.update(request(Map.of("gcp_connected", true, "description", "d")), CURRENT)
                        .description())
                .isEqualTo("d");
    }

    @Test
    void aPersonalEndpointTakesANameAndADescriptionAndRefusesTheRestByName() {
        EndpointDefinition laptop = requests.personal(request(
                Map.of("display_name", "laptop", "is_globus_connect", true, "description", "mine", "public", false)));
        assertThat(laptop.displayName()).isEqualTo("laptop");
        assertThat(laptop.description()).isEqualTo("mine");
        for (var sent : List.<Map.Entry<String, Object>>of(
                Map.entry("url", "gsiftp://a.example"),
                Map.entry("DATA", List.of(Map.of("uri", "gsiftp://a.example"))),
                Map.entry("password", "secret"),
                Map.entry("username", "u"),
                Map.entry("myproxy_server", "myproxy.example"),
                Map.entry("myproxy_dn", "/CN=myproxy"),
                Map.entry("ssh_private_key", "-----BEGIN OPENSSH PRIVATE KEY-----"),
                Map.entry("ssh_host_key", "ssh-ed25519 AAAA"),
                Map.entry("default_directory", "/home"),
                Map.entry("public", true),
                Map.entry("owner_string", "alice"),
                Map.entry("gcp_revoked", false))) {
            assertThat(field(() -> requests.personal(request(Map.of(
                            "display_name", "laptop", "is_globus_connect", true, sent.getKey(), sent.getValue())))))
                    .as(sent.getKey())
                    .isEqualTo(sent.getKey());
        }
    }

    @Test
    void aServerDocumentNamingAnotherServerIsRefused() {
        ServerRequest sentBack = new ServerRequest("server", 7L, "a.example", 2811, "ftp", null, null);
        assertThat(EndpointRequests.server(sentBack, 7L).hostname()).isEqualTo("a.example");
        assertThat(field(() -> EndpointRequests.server(sentBack, 8L))).isEqualTo("id");
        assertThat(field(() -> EndpointRequests.server(sentBack, null))).isEqualTo("id");
    }
}
