/**
 * How a mover reaches an endpoint: {@link org.ferry.mover.access.EndpointAccess}, plain values with
 * the secret sealed (an FTP password or a GSI proxy credential under
 * {@link org.ferry.gsi.store.CredentialCipher}), fit to travel in a chunk message, and
 * {@link org.ferry.mover.access.EndpointSessions}, which opens them into logged-in sessions with
 * the right trust and data channel protection. Knows nothing of Spring, JPA or Kafka.
 */
package org.ferry.mover.access;
