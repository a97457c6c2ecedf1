import { WorkspaceClient } from '@workspace-read-api/client';

const api = new WorkspaceClient({ apiKey: process.env.WORKSPACE_API_KEY!, baseUrl: process.env.WORKSPACE_API_URL! });
for await (const prompt of api.list('/api/v1/visibility/prompts', { query: { range: '30d', limit: 100 } })) {
  const { overview, total_snapshots } = await api.get('/api/v1/visibility/prompts/{prompt}', {
    path: { prompt: prompt.id }, query: { range: '30d' },
  });
  console.log(prompt.text, overview.mention_rate.current, overview.citation_rate.current, total_snapshots);
}
