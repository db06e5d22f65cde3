// Asks before destructive buttons and forms (data-confirm) do their work.
(function () {
  'use strict';
  document.addEventListener('submit', function (event) {
    var form = event.target;
    var button = event.submitter;
    var question = (button && button.dataset.confirm) || form.dataset.confirm;
    if (question && !window.confirm(question)) {
      event.preventDefault();
    }
  });
})();
