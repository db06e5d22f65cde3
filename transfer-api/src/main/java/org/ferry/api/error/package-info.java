/**
 * Domain exceptions the services throw, free of HTTP: each names the offending field where
 * there is one and carries a Globus error code; the web layer's advice maps each class to an
 * HTTP status and the error document.
 */
package org.ferry.api.error;
