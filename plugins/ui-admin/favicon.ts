/**
 * The site's icon, answered at /favicon.ico for every page of the origin (the UI, the embedded IdP's login page,
 * Swagger UI): browsers ask for it on their own, and a 404 there is a console error on every page. SVG, which browsers
 * take from its content type whatever the name.
 */
export const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="6" fill="#1d4ed8"/>
<path d="M6 24h20M8 20l5-7 4 4 7-10" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>
</svg>`;
