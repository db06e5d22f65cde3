/** Ferry's own Micrometer metrics (Prometheus at {@code /actuator/prometheus}). */
package org.ferry.server.metrics;
