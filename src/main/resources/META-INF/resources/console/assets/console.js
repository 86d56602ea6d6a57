// redrive console: the only script, served by the service (the Content-Security-Policy allows no
// other and no inline code). Every page works without it; it only refreshes the parts marked
// data-live="<url>" every data-every milliseconds, until a refreshed part says data-final.
(function () {
  'use strict';

  function refresh(box) {
    var every = parseInt(box.getAttribute('data-every'), 10) || 5000;
    var url = box.getAttribute('data-live');
    function tick() {
      if (box.querySelector('[data-final]') || box.hasAttribute('data-final')) {
        return;
      }
      fetch(url, { credentials: 'same-origin', headers: { 'Accept': 'text/html' } })
        .then(function (answer) {
          if (answer.redirected || !answer.ok) {
            throw new Error('refresh answered ' + answer.status);
          }
          return answer.text();
        })
        .then(function (html) {
          // The fragment is the server's own escaped HTML of this very part.
          var focused = document.activeElement && document.activeElement.id;
          box.innerHTML = html;
          if (focused && document.getElementById(focused)) {
            document.getElementById(focused).focus();
          }
          box.setAttribute('data-refreshed', String(Date.now()));
          setTimeout(tick, every);
        })
        .catch(function () {
          // A session that ended or a service that is away: stop, and say so once.
          box.setAttribute('data-stale', 'true');
        });
    }
    setTimeout(tick, every);
  }

  document.addEventListener('DOMContentLoaded', function () {
    var boxes = document.querySelectorAll('[data-live]');
    for (var i = 0; i < boxes.length; i++) {
      refresh(boxes[i]);
    }
  });
})();
