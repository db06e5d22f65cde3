/**
 * Ferry Connect inside ferry-server: the relay personal endpoints' agents dial out to, its online
 * CA, and the credential the service's movers log in to agents with (docs/connect.md).
 */
package org.ferry.api.connect;
