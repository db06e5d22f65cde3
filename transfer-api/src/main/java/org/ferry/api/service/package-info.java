/**
 * The services behind the API: endpoint registry, file operations, transfer and delete
 * submission, task queries and changes. They know nothing of HTTP and throw the domain
 * exceptions of {@link org.ferry.api.error}.
 */
package org.ferry.api.service;
