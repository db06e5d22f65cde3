package org.ferry.api.web;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.DeserializationFeature;

/** JSON reading rules of the API and its OpenAPI description. */
@Configuration
public class ApiWebConfiguration {

    /**
     * Request documents are read strictly: a field the API does not know is a 400 naming it
     * (a misspelt option must never be silently dropped).
     *
     * @return the customizer
     */
    @Bean
    public JsonMapperBuilderCustomizer strictRequests() {
        return builder -> builder.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    /** @return the OpenAPI document's description (served at /v3/api-docs, UI at /swagger-ui.html) */
    @Bean
    public OpenAPI ferryOpenApi() {
        return new OpenAPI()
                .info(new Info()
                        .title("Ferry REST API")
                        .version("v0.10")
                        .description("The Globus Transfer API v0.10 as Ferry serves it (docs/rest-api.md): "
                                + "endpoints, file operations, transfer and delete tasks, plus Ferry's access "
                                + "tokens and accounts."))
                .components(new Components()
                        .addSecuritySchemes(
                                "bearer",
                                new SecurityScheme()
                                        .type(SecurityScheme.Type.HTTP)
                                        .scheme("bearer")
                                        .description("A Ferry access token, or a JWT of the configured OIDC provider"))
                        .addSecuritySchemes(
                                "basic",
                                new SecurityScheme()
                                        .type(SecurityScheme.Type.HTTP)
                                        .scheme("basic")))
                .addSecurityItem(new SecurityRequirement().addList("bearer"))
                .addSecurityItem(new SecurityRequirement().addList("basic"));
    }
}
