package org.ferry.scheduler;

import org.springframework.boot.SpringBootConfiguration;

/**
 * The configuration the module's slice tests ({@code @JdbcTest}) start from: the scheduler has no
 * application class of its own (webapp assembles it), and a slice test imports the beans it tests.
 */
@SpringBootConfiguration
public class SliceTestConfiguration {}
