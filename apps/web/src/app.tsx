export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 24 }}>
      <h1>Mirra</h1>
      <p>AI pictures and videos of yourself.</p>
    </main>
  );
}
