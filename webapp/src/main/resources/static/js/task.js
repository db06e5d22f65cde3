// The task page's live view: one EventSource on the task's stream (server-sent events; no
// polling), the counters, the event list and the throughput chart (uPlot) updated in place.
(function () {
  'use strict';
  var root = document.getElementById('task');
  if (!root) {
    return;
  }
  var updates = 0;
  var chart = null;
  var points = [[], []];

  function text(id, value) {
    var element = document.getElementById(id);
    if (element && value !== undefined && value !== null) {
      element.textContent = String(value);
    }
  }

  function summary() {
    var element = document.getElementById('throughput-summary');
    if (!element || points[0].length === 0) {
      return;
    }
    var last = points.lastText || '';
    element.textContent = points[0].length + (points[0].length === 1 ? ' sample' : ' samples') + '; latest ' + last + '.';
  }

  function drawChart() {
    var box = document.getElementById('throughput-chart');
    var data = document.getElementById('throughput-data');
    if (!box || !data) {
      return;
    }
    JSON.parse(data.textContent || '[]').forEach(function (p) {
      points[0].push(p.t);
      points[1].push(p.rate / 1048576);
      points.lastText = p.rate_text;
    });
    box.dataset.points = String(points[0].length);
    summary();
    if (typeof uPlot === 'undefined') {
      return; // the table of events still tells the story
    }
    var width = Math.max(280, box.clientWidth || 600);
    chart = new uPlot({
      width: width,
      height: 220,
      // each rate holds over the interval before its sample: a step drawn back to the sample before
      series: [{}, {label: 'MiB/s', stroke: '#1f5fa8', fill: 'rgba(31,95,168,0.12)', points: {show: true},
        paths: uPlot.paths.stepped({align: 1})}],
      axes: [{}, {label: 'MiB/s'}],
      scales: {x: {time: true}}
    }, points, box);
    window.addEventListener('resize', function () {
      chart.setSize({width: Math.max(280, box.clientWidth || 600), height: 220});
    });
  }

  function addPoint(p) {
    points[0].push(p.t);
    points[1].push(p.rate / 1048576);
    points.lastText = p.rate_text;
    var box = document.getElementById('throughput-chart');
    if (box) {
      box.dataset.points = String(points[0].length);
    }
    if (chart) {
      chart.setData(points);
    }
    summary();
  }

  function addEvent(e) {
    var body = document.querySelector('#event-table tbody');
    if (!body || body.querySelector('tr[data-event-id="' + e.id + '"]')) {
      return;
    }
    var row = document.createElement('tr');
    row.dataset.eventId = String(e.id);
    if (e.is_error) {
      row.className = 'fault';
    }
    var time = document.createElement('time');
    time.setAttribute('datetime', e.iso_time);
    time.textContent = e.time;
    var details = document.createElement('code');
    details.textContent = e.details || '';
    [time, document.createTextNode(e.code), document.createTextNode(e.description), details].forEach(function (node) {
      var cell = document.createElement('td');
      cell.appendChild(node);
      row.appendChild(cell);
    });
    body.insertBefore(row, body.firstChild);
  }

  function showTask(t) {
    var status = document.getElementById('task-status');
    if (status) {
      status.textContent = t.status;
      status.className = 'status status-' + t.status;
    }
    text('task-nice-status', !t.ended && t.nice_status ? '(' + t.nice_status + ')' : '');
    var reason = document.getElementById('task-wait-reason');
    if (reason) {
      reason.textContent = t.nice_status_details || '';
      reason.hidden = !t.nice_status_details;
    }
    text('task-rate', t.rate_text);
    var rate = document.getElementById('task-rate');
    if (rate && t.rate_bytes_per_second !== undefined) {
      rate.dataset.bytesPerSecond = String(t.rate_bytes_per_second);
    }
    text('task-eta', t.eta_text);
    text('task-files', t.files);
    text('task-files-transferred', t.files_transferred);
    text('task-files-skipped', t.files_skipped);
    text('task-directories', t.directories);
    text('task-bytes', t.bytes_text);
    text('task-faults', t.faults);
    text('task-completed', t.completion_time);
    var progress = document.getElementById('task-progress');
    if (progress) {
      progress.value = t.percent;
      progress.textContent = t.percent + '%';
    }
    var fatal = document.getElementById('task-fatal');
    if (fatal && t.fatal_error_code) {
      fatal.textContent = t.fatal_error_code + ': ' + (t.fatal_error_description || '');
      fatal.hidden = false;
    }
    if (t.ended) {
      var cancel = document.getElementById('cancel-form');
      if (cancel) {
        cancel.remove();
      }
    }
    if (t.problem_files) {
      showProblemFiles(t);
    }
    root.dataset.status = t.status;
  }

  function showProblemFiles(t) {
    var body = document.getElementById('faults-body');
    if (!body) {
      return;
    }
    while (body.firstChild) {
      body.removeChild(body.firstChild);
    }
    t.problem_files.forEach(function (f) {
      var row = document.createElement('tr');
      var path = document.createElement('code');
      path.textContent = f.source_path;
      var fault = (f.fault_code || '') + (f.fault_description ? ': ' + f.fault_description : '');
      [path, document.createTextNode(f.state), document.createTextNode(fault),
        document.createTextNode(String(f.attempts))].forEach(function (node) {
        var cell = document.createElement('td');
        cell.appendChild(node);
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
    var any = t.problem_files.length > 0;
    document.getElementById('faults-none').hidden = any;
    document.getElementById('faults-wrap').hidden = !any;
    var summary = document.getElementById('faults-summary');
    summary.hidden = !any;
    var total = t.subtasks_failed + t.subtasks_skipped_errors;
    summary.textContent = t.subtasks_failed + ' failed, ' + t.subtasks_skipped_errors + ' skipped for a source error'
      + (total > t.problem_files.length ? '; the first ' + t.problem_files.length + ' are listed' : '');
  }

  function listen() {
    if (root.dataset.status !== 'ACTIVE' && root.dataset.status !== 'INACTIVE') {
      return;
    }
    var url = root.dataset.stream + (root.dataset.stream.indexOf('?') < 0 ? '?' : '&') + 'after=' + root.dataset.lastEvent;
    var source = new EventSource(url);
    source.onopen = function () {
      root.dataset.live = 'open';
    };
    source.addEventListener('event', function (message) {
      addEvent(JSON.parse(message.data));
    });
    source.addEventListener('point', function (message) {
      addPoint(JSON.parse(message.data));
    });
    source.addEventListener('task', function (message) {
      var t = JSON.parse(message.data);
      updates += 1;
      root.dataset.updates = String(updates);
      showTask(t);
      if (t.ended) {
        // the server closes the stream; without this the browser would reconnect
        source.close();
        root.dataset.live = 'ended';
      }
    });
    source.onerror = function () {
      // the browser reconnects by itself, sending Last-Event-ID
      if (root.dataset.live !== 'ended') {
        root.dataset.live = 'reconnecting';
      }
    };
  }

  drawChart();
  listen();
})();
