/** REST controllers of /v0.10 (docs/rest-api.md), the error body, JSON documents. */
package org.ferry.api.web;
