// Applies the remembered colour scheme (or the system's) before React renders, so there is no flash.
(function () {
  try {
    var stored = window.localStorage.getItem('checkboard-color-scheme');
    var scheme = stored === 'light' || stored === 'dark' ? stored : 'auto';
    if (scheme === 'auto')
      scheme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  } catch (e) {
    document.documentElement.setAttribute('data-mantine-color-scheme', 'light');
  }
})();
