/** JPA entities of the transfer service: user, endpoint, task, transfer item, transferred file, event. */
package org.ferry.api.domain;
