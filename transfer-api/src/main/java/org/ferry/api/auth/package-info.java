/** API authentication: bearer tokens stored as SHA-256 hashes, the first-start admin user. */
package org.ferry.api.auth;
