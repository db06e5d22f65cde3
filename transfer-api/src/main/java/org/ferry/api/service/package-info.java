/** Endpoint registry, transfer validation and submission, task queries and cancel, listings. */
package org.ferry.api.service;
