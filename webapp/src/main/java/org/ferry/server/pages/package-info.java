/**
 * The web pages: server-rendered Thymeleaf views over the same services the REST controllers call
 * (never HTTP to itself): sign-in, endpoints, a two-pane file manager, tasks with live progress
 * pushed as server-sent events.
 */
package org.ferry.server.pages;
