/** Ferry transfer-api. */
package org.ferry.api;
