package org.ferry.api;

import org.springframework.boot.SpringBootConfiguration;

/**
 * The configuration the module's slice tests ({@code @JdbcTest}, {@code @WebMvcTest}) start from:
 * transfer-api has no application class of its own (webapp assembles it), and a slice test
 * imports the beans it tests itself.
 */
@SpringBootConfiguration
public class SliceTestConfiguration {}
