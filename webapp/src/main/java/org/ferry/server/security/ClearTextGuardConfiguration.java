package org.ferry.server.security;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import tools.jackson.databind.ObjectMapper;

/** Installs the {@link ClearTextGuard} before every other filter, unless {@code ferry.http.allow-clear-text=true}. */
@Configuration
public class ClearTextGuardConfiguration {

    /** @return the guard, first in the filter chain */
    @Bean
    @ConditionalOnProperty(name = "ferry.http.allow-clear-text", havingValue = "false", matchIfMissing = true)
    public FilterRegistrationBean<ClearTextGuard> clearTextGuard(ObjectMapper json) {
        FilterRegistrationBean<ClearTextGuard> registration = new FilterRegistrationBean<>(new ClearTextGuard(json));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        registration.addUrlPatterns("/*");
        return registration;
    }
}
