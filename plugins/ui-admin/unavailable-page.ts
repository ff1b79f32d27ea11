/** The page `/` answers when the UI has not been built: what to run, instead of a blank page or a crash. */

export function uiUnavailablePage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Loadplane: the UI is not built</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:10vh auto;padding:0 1rem}code{background:#eee;padding:.1rem .3rem}</style>
</head><body><h1>The admin UI is not built</h1>
<p>The service is running, but <code>ui/dist</code> is missing. Build the UI with</p>
<pre><code>npm run build</code></pre>
<p>(or <code>npm ci</code>, which builds it) and reload this page. The API works meanwhile: <a href="/swagger-ui/">/swagger-ui/</a>.</p>
</body></html>`;
}
