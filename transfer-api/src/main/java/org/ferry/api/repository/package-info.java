/** Spring Data repositories; task state changes are conditional single-statement updates. */
package org.ferry.api.repository;
