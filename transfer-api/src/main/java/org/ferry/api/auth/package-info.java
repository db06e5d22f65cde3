/** The Ferry state directory and the first-start admin account with its token file. */
package org.ferry.api.auth;
