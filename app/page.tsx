export default function Home() {
  return (
    <main style={{ maxWidth: 720, margin: '10vh auto', padding: '0 24px', lineHeight: 1.5 }}>
      <h1 style={{ fontWeight: 600 }}>Roomtone</h1>
      <p>Photorealistic renders, edits by instruction or colour mask, decorations and upscales for interior images.</p>
      <ul>
        <li>
          REST API: <code>/v1</code> — reference in <a href="/v1/openapi.json">/v1/openapi.json</a>
        </li>
        <li>
          Health: <a href="/healthz">/healthz</a>
        </li>
      </ul>
    </main>
  );
}
