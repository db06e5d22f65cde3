/** Accounts, roles and access tokens: who calls the API, free of HTTP. */
package org.ferry.api.identity;
