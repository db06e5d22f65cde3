/**
 * Secrets at rest and in transit: {@link org.ferry.gsi.store.CredentialCipher} seals credentials
 * (proxy PEM files, endpoint passwords) with AES-256-GCM under one configured key, bound to the
 * record they belong to.
 */
package org.ferry.gsi.store;
