package org.ferry.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * A test class that runs real parts in containers: Testcontainers' JUnit 5 extension starts its
 * static {@code @Container} fields before the class and stops them after it; without a container
 * engine the class is skipped with the reason, and fails under CI ({@link ContainerEngine}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(ContainerEngine.class)
@Testcontainers
public @interface RequiresContainers {}
