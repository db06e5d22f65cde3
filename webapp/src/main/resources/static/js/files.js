// The file manager: tells the server the browser's time zone, so a deadline typed in local time
// means what the user meant.
(function () {
  'use strict';
  var offset = document.getElementById('tzOffsetMinutes');
  if (offset) {
    offset.value = String(new Date().getTimezoneOffset());
  }
})();
